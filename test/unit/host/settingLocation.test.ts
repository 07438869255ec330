// A setting opens by id in the Settings editor tab where it applies: in a remote window (code-server)
// the machine settings are only in the Remote tab, where a plain query in the User tab found nothing.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { settingScopes, settingsQuery, settingsTab } from '../../../src/host/settingLocation';
import { Settings } from '../../../src/shared/ids';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { configuration: unknown } };
const scopes = settingScopes(manifest.contributes.configuration);

describe('where a setting is edited', () => {
  it('opens the embedding model settings in the Remote tab of a remote window, the User tab of a local one', () => {
    for (const id of [Settings.embeddingModel, Settings.embeddingLocalPath]) {
      assert.equal(settingsTab(scopes.get(id), { remote: true, folder: true }), 'remote', id);
      assert.equal(settingsTab(scopes.get(id), { remote: false, folder: true }), 'user', id);
    }
  });

  it('opens the include/exclude settings for the workspace, and application settings in the User tab', () => {
    assert.equal(settingsTab(scopes.get(Settings.include), { remote: true, folder: true }), 'workspace');
    assert.equal(
      settingsTab(scopes.get(Settings.exclude), { remote: false, folder: false }),
      'user',
      'no folder: no Workspace tab',
    );
    assert.equal(settingsTab(scopes.get(Settings.chatTimeout), { remote: true, folder: true }), 'user');
    assert.equal(settingsTab(scopes.get(Settings.storeConnection), { remote: true, folder: true }), 'user');
    assert.equal(settingsTab(undefined, { remote: true, folder: true }), 'user', 'window scope (the default)');
  });

  it('queries exactly the settings by id, and reads every scope package.json gives', () => {
    assert.equal(
      settingsQuery([Settings.include, Settings.exclude]),
      '@id:evident.index.include @id:evident.index.exclude',
    );
    assert.equal(scopes.get(Settings.embeddingModel), 'machine-overridable');
    assert.equal(scopes.get(Settings.model), 'window');
    assert.deepEqual(
      settingScopes([{ properties: { a: { scope: 'machine' } } }, { properties: { b: {} } }, null]),
      new Map([
        ['a', 'machine'],
        ['b', 'window'],
      ]),
    );
  });
});
