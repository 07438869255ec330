// package.json's contributions and src/shared/ids.ts name the same commands, views, settings,
// colours and chat participant, so code and manifest cannot drift.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  Colors,
  Commands,
  ContextKeys,
  EXTENSION_ID,
  Participant,
  Settings,
  Views,
  Walkthrough,
  walkthroughStepId,
} from '../../../src/shared/ids';

const root = path.resolve(__dirname, '../../..');
interface Manifest {
  name: string;
  publisher: string;
  icon?: string;
  activationEvents?: string[];
  contributes: {
    commands: { command: string; title: string; category?: string; icon?: string }[];
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    views: Record<string, { id: string; type?: string; name: string }[]>;
    configuration: {
      properties: Record<
        string,
        { description?: string; markdownDescription?: string; scope?: string; default?: unknown }
      >;
    };
    colors: { id: string; description: string; defaults: Record<string, string> }[];
    menus: Record<string, { command: string }[]>;
    keybindings: { command: string }[];
    chatParticipants: { id: string; name: string }[];
    walkthroughs: { id: string; steps: { id: string; completionEvents?: string[]; media: { markdown?: string } }[] }[];
  };
}
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const c = manifest.contributes;

// Every setting of ids.ts is contributed.
const NOT_CONTRIBUTED_SETTINGS: string[] = [];

describe('package.json contributions match src/shared/ids.ts', () => {
  it('has the extension id the ids module names', () => {
    assert.equal(`${manifest.publisher}.${manifest.name}`, EXTENSION_ID);
  });

  it('contributes exactly the commands of ids.ts, each with a title and the Evident category', () => {
    const contributed = c.commands.map((x) => x.command).sort();
    assert.deepEqual(contributed, Object.values(Commands).sort());
    for (const command of c.commands) {
      assert.equal(command.category, 'Evident', command.command);
      assert.ok(command.title.length > 0, command.command);
      assert.match(command.icon ?? '', /^\$\([a-z-]+\)$/, `${command.command} has a codicon`);
    }
  });

  it('refers only to known commands from menus and keybindings', () => {
    const known = new Set<string>(Object.values(Commands));
    for (const [menu, items] of Object.entries(c.menus)) {
      for (const item of items) assert.ok(known.has(item.command), `${menu}: ${item.command}`);
    }
    for (const k of c.keybindings) assert.ok(known.has(k.command), k.command);
    assert.ok(
      c.keybindings.some((k) => k.command === Commands.ask),
      'Ask has a keybinding',
    );
  });

  it('contributes the walkthrough and steps the host marks done, with the id VS Code gives a step', () => {
    assert.deepEqual(
      c.walkthroughs.map((w) => w.id),
      [Walkthrough.id],
    );
    assert.deepEqual(
      c.walkthroughs[0].steps.map((s) => s.id),
      Object.values(Walkthrough.steps),
    );
    const index = c.walkthroughs[0].steps.find((s) => s.id === Walkthrough.steps.index);
    assert.ok(
      index?.completionEvents?.includes(`onContext:${ContextKeys.indexed}`),
      'the index step completes on the indexed context key',
    );
    assert.equal(walkthroughStepId('index'), 'evident-dev.evident#evident.gettingStarted#index');
  });

  it('contributes the view container and the chat webview view', () => {
    assert.deepEqual(
      c.viewsContainers.activitybar.map((v) => [v.id, v.title]),
      [[Views.container, Views.containerTitle]],
    );
    assert.deepEqual(Object.keys(c.views), [Views.container]);
    assert.deepEqual(
      c.views[Views.container].map((v) => [v.id, v.type]),
      [[Views.chat, 'webview']],
    );
  });

  it('contributes every setting of ids.ts (with a description and scope) and no other', () => {
    const keys = Object.entries(Settings)
      .filter(([name]) => name !== 'section')
      .map(([, key]) => key);
    const expected = keys.filter((k) => !NOT_CONTRIBUTED_SETTINGS.includes(k)).sort();
    assert.deepEqual(Object.keys(c.configuration.properties).sort(), expected);
    for (const [key, property] of Object.entries(c.configuration.properties)) {
      assert.ok((property.markdownDescription ?? property.description ?? '').length > 20, `${key} has a description`);
      assert.ok(property.scope, `${key} has a scope`);
      assert.ok(key.startsWith(`${Settings.section}.`), key);
    }
  });

  it('contributes the colours of ids.ts with light, dark and both high-contrast defaults', () => {
    assert.deepEqual(c.colors.map((x) => x.id).sort(), Object.values(Colors).sort());
    for (const colour of c.colors) {
      assert.deepEqual(
        Object.keys(colour.defaults).sort(),
        ['dark', 'highContrast', 'highContrastLight', 'light'],
        colour.id,
      );
    }
  });

  it('contributes the @evident chat participant', () => {
    assert.deepEqual(
      c.chatParticipants.map((p) => [p.id, p.name]),
      [[Participant.id, Participant.name]],
    );
  });

  it('activates lazily and ships the media it names', () => {
    assert.ok(!(manifest.activationEvents ?? []).includes('*'));
    const files = [
      manifest.icon,
      ...c.viewsContainers.activitybar.map((v) => v.icon),
      ...c.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown)),
    ];
    for (const file of files) assert.ok(file && existsSync(path.join(root, file)), `${file} exists`);
  });
});

describe('defaults the host knows before the engine loads', () => {
  it('equal the engine defaults and the contributed setting defaults', async () => {
    const { DEFAULT_EMBEDDING_MODEL } = await import('../../../src/core/retrieval/embedder');
    const { DEFAULT_GEMINI_MODEL } = await import('../../../src/core/models/geminiModel');
    const { Defaults } = await import('../../../src/shared/ids');
    assert.equal(Defaults.embeddingModel, DEFAULT_EMBEDDING_MODEL);
    assert.equal(Defaults.geminiModel, DEFAULT_GEMINI_MODEL);
    const properties = Object.assign(
      {},
      ...[c.configuration].flat().map((x: { properties: Record<string, { default?: unknown }> }) => x.properties),
    );
    assert.equal(properties[Settings.embeddingModel].default, DEFAULT_EMBEDDING_MODEL);
    assert.equal(properties[Settings.geminiModel].default, DEFAULT_GEMINI_MODEL);
  });
});
