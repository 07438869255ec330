// The trust model of settings: in an untrusted folder the restricted settings come from the
// user's settings only; anywhere, a workspace cannot set the support threshold under the floor;
// package.json declares the same restricted settings for Restricted Mode.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_THRESHOLD, WORKSPACE_THRESHOLD_FLOOR } from '../../../src/domain/threshold';
import { RESTRICTED_SETTINGS, scopedValue, supportThreshold } from '../../../src/host/settingScopes';
import { Settings } from '../../../src/shared/ids';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
  capabilities?: {
    untrustedWorkspaces?: { supported: unknown; restrictedConfigurations?: string[]; description?: string };
  };
};

describe('setting scopes and workspace trust', () => {
  const repoModel = {
    defaultValue: '',
    globalValue: undefined,
    workspaceValue: './models/evil',
    workspaceFolderValue: undefined,
  };

  it('ignores a workspace model folder in an untrusted folder, and uses it in a trusted one', () => {
    assert.deepEqual(scopedValue(Settings.embeddingLocalPath, repoModel, false), {
      value: '',
      origin: 'default',
      ignoredWorkspaceValue: true,
    });
    assert.deepEqual(scopedValue(Settings.embeddingLocalPath, repoModel, true), {
      value: './models/evil',
      origin: 'workspace',
    });
    const withUser = { ...repoModel, globalValue: '/opt/models/minilm' };
    assert.deepEqual(scopedValue(Settings.embeddingLocalPath, withUser, false), {
      value: '/opt/models/minilm',
      origin: 'user',
      ignoredWorkspaceValue: true,
    });
    const folderValue = { defaultValue: 'a', workspaceFolderValue: 'repo/model' };
    for (const key of [
      Settings.embeddingModel,
      Settings.entailmentModel,
      Settings.escalation,
      Settings.relevanceCheck,
      Settings.model,
      Settings.geminiModel,
    ]) {
      assert.equal(scopedValue(key, folderValue, false).value, 'a', key);
      assert.equal(scopedValue(key, folderValue, true).value, 'repo/model', key);
    }
  });

  it('lets a workspace set unrestricted settings even when untrusted', () => {
    assert.deepEqual(
      scopedValue(Settings.include, { defaultValue: ['**/*.md'], workspaceValue: ['docs/**/*.md'] }, false),
      { value: ['docs/**/*.md'], origin: 'workspace' },
    );
    assert.equal(scopedValue(Settings.topK, { defaultValue: 6, workspaceFolderValue: 3 }, false).value, 3);
  });

  it('never takes a workspace threshold of 0: ignored when untrusted, raised to the floor when trusted', () => {
    const zero = { defaultValue: null, workspaceValue: 0 };
    assert.deepEqual(supportThreshold(scopedValue(Settings.supportThreshold, zero, false)), {
      threshold: undefined,
      raisedToFloor: false,
    });
    assert.deepEqual(supportThreshold(scopedValue(Settings.supportThreshold, zero, true)), {
      threshold: WORKSPACE_THRESHOLD_FLOOR,
      raisedToFloor: true,
    });
    assert.deepEqual(supportThreshold(scopedValue(Settings.supportThreshold, { workspaceFolderValue: 0.3 }, true)), {
      threshold: WORKSPACE_THRESHOLD_FLOOR,
      raisedToFloor: true,
    });
    assert.deepEqual(
      supportThreshold(scopedValue(Settings.supportThreshold, { workspaceValue: 0.8 }, true)),
      { threshold: 0.8, raisedToFloor: false },
      'stricter is allowed',
    );
    assert.deepEqual(
      supportThreshold(scopedValue(Settings.supportThreshold, { globalValue: 0.4, workspaceValue: 0 }, false)),
      { threshold: 0.4, raisedToFloor: false },
      "the user's own setting is theirs",
    );
    assert.deepEqual(
      supportThreshold(scopedValue(Settings.supportThreshold, { workspaceValue: 7 }, true)),
      { threshold: undefined, raisedToFloor: false },
      'out of range: the default',
    );
    assert.equal(
      WORKSPACE_THRESHOLD_FLOOR,
      DEFAULT_THRESHOLD,
      'a workspace can only make the verifier stricter than its calibrated default',
    );
  });

  it('declares limited support in untrusted workspaces with exactly these restricted settings', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    assert.ok((untrusted?.description ?? '').length > 20);
    assert.deepEqual([...(untrusted?.restrictedConfigurations ?? [])].sort(), [...RESTRICTED_SETTINGS].sort());
  });
});
