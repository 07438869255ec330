// The verifier's second tier, from the `evident.verifier.escalation` setting: a local
// entailment model (loaded once, kept while its setting is unchanged) or a judge on the chat
// model that answers the turn. The extractive model cannot judge: then there is no second tier.

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { ChatModel, SupportScorer } from '../core/types';
import { loadEngineApi } from './engineLoader';
import { readEscalation } from './settings';

export class VerifierEscalation {
  private entailment: { model: string; scorer: SupportScorer } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The second tier for a turn answered by `model`, or undefined when off or impossible. */
  forTurn(model: ChatModel, scope?: vscode.ConfigurationScope): SupportScorer | undefined {
    const setting = readEscalation(scope);
    const api = loadEngineApi();
    if (setting.kind === 'judge') {
      if (model.name === 'extractive') {
        this.log.warn(
          'Verifier escalation "judge" needs a chat model (Gemini or a VS Code language model); the extractive model cannot judge, so only the lexical check runs.',
        );
        return undefined;
      }
      return api.createJudgeScorer(model);
    }
    if (setting.kind === 'entailment') {
      const wanted = setting.entailmentModel || api.DEFAULT_ENTAILMENT_MODEL;
      if (this.entailment?.model !== wanted) {
        const folder = path.resolve(wanted);
        const local = path.isAbsolute(wanted) && existsSync(folder);
        this.entailment = {
          model: wanted,
          scorer: api.createEntailmentScorer({
            model: wanted,
            ...(local ? { localModelPath: folder } : {}),
            cacheDir: path.join(this.context.globalStorageUri.fsPath, 'models'),
            allowRemote: !local,
          }),
        };
      }
      return this.entailment.scorer;
    }
    return undefined;
  }
}
