// Which model answers, from the `evident.model` setting and what is available (pure rule).

import assert from 'node:assert/strict';
import { modelChoices, parseModelSetting, selectModel } from '../../../src/host/modelSelection';

describe('model selection', () => {
  const none = { hasGeminiKey: false, languageModels: 0 };
  const key = { hasGeminiKey: true, languageModels: 0 };
  const lm = { hasGeminiKey: false, languageModels: 2 };
  const both = { hasGeminiKey: true, languageModels: 1 };

  it('auto prefers Gemini with a key, then a VS Code model, then extractive', () => {
    assert.deepEqual(selectModel('auto', both), { backend: 'gemini' });
    assert.deepEqual(selectModel('auto', key), { backend: 'gemini' });
    assert.deepEqual(selectModel('auto', lm), { backend: 'vscode-lm' });
    assert.deepEqual(selectModel('auto', none), { backend: 'extractive' });
  });

  it('honours an explicit choice when it can run', () => {
    assert.deepEqual(selectModel('vscode-lm', both), { backend: 'vscode-lm' });
    assert.deepEqual(selectModel('gemini', both), { backend: 'gemini' });
    assert.deepEqual(selectModel('extractive', both), { backend: 'extractive' });
  });

  it('falls back to extractive with a notice when the explicit choice cannot run', () => {
    const gemini = selectModel('gemini', lm);
    assert.equal(gemini.backend, 'extractive');
    assert.match(gemini.notice ?? '', /no API key is set, so the offline model answers/);
    assert.equal(gemini.noticeCode, 'no-gemini-key');
    const vscodeLm = selectModel('vscode-lm', key);
    assert.equal(vscodeLm.backend, 'extractive');
    assert.match(vscodeLm.notice ?? '', /No VS Code language model/);
    assert.equal(vscodeLm.noticeCode, 'no-language-model');
  });

  it('reads unknown or missing setting values as auto', () => {
    assert.equal(parseModelSetting('gemini'), 'gemini');
    assert.equal(parseModelSetting('vscode-lm'), 'vscode-lm');
    for (const value of [undefined, null, 'GPT', 3, '']) assert.equal(parseModelSetting(value), 'auto');
  });

  it('built-in grounding: Google Search needs the Gemini key, Vertex AI Search a data store; else offline with a notice', () => {
    assert.deepEqual(selectModel('google-search', key), { backend: 'google-search' });
    assert.deepEqual(selectModel('vertex-ai-search', { ...none, hasDataStore: true }), { backend: 'vertex-ai-search' });
    const google = selectModel('google-search', lm);
    assert.equal(google.backend, 'extractive');
    assert.match(google.notice ?? '', /Google Search is selected but no API key/);
    const vertex = selectModel('vertex-ai-search', both);
    assert.equal(vertex.backend, 'extractive');
    assert.match(vertex.notice ?? '', /no data store is set \("evident\.vertexAiSearch\.dataStore"\)/);
    assert.equal(vertex.noticeCode, 'no-data-store');
    assert.equal(parseModelSetting('google-search'), 'google-search');
    assert.equal(parseModelSetting('vertex-ai-search'), 'vertex-ai-search');
  });

  it('offers "Gemini + Google Search" always and Vertex AI Search only once a data store is set', () => {
    const labels = (hasDataStore: boolean) => modelChoices({ hasDataStore }).map((c) => c.label);
    assert.deepEqual(labels(false), [
      'Auto',
      'Gemini',
      'Gemini + Google Search',
      'VS Code language model',
      'Extractive (offline)',
    ]);
    assert.deepEqual(labels(true), [
      'Auto',
      'Gemini',
      'Gemini + Google Search',
      'Vertex AI Search',
      'VS Code language model',
      'Extractive (offline)',
    ]);
  });
});
