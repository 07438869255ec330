// Evident: Choose Model… — a quick pick over the model choices (workspace docs, or built-in
// grounding: Gemini + Google Search, and Vertex AI Search once a data store is set), written to
// the `evident.model` setting; the current choice is marked.

import * as vscode from 'vscode';
import { Commands, Settings } from '../../shared/ids';
import { modelChoices, type ModelSetting } from '../modelSelection';
import { readModelSetting, readVertexSearchSettings } from '../settings';
import type { EvidentCommand } from './command';

async function chooseModelSetting(): Promise<ModelSetting | undefined> {
  const current = readModelSetting();
  const items = modelChoices({ hasDataStore: readVertexSearchSettings().dataStore !== '' }).map((choice) => ({
    ...choice,
    label: choice.setting === current ? `$(check) ${choice.label}` : choice.label,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Evident: which model answers?',
    placeHolder: 'Vertex AI Search appears once "evident.vertexAiSearch.dataStore" is set',
  });
  if (!picked) return undefined;
  await vscode.workspace
    .getConfiguration(Settings.section)
    .update(Settings.model.slice(Settings.section.length + 1), picked.setting, vscode.ConfigurationTarget.Global);
  return picked.setting;
}

export const chooseModel: EvidentCommand = { id: Commands.chooseModel, run: () => chooseModelSetting() };
