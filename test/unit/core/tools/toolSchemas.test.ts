// The tools' schemas and descriptions are defined once in the core: package.json's
// languageModelTools (what VS Code shows the model) must declare exactly them, and the names the
// host registers; the schemas must accept what the tools accept and describe what they return.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  CHECK_INPUT_SCHEMA,
  MAX_ANSWER_CHARS,
  MAX_SEARCH_K,
  SEARCH_INPUT_SCHEMA,
  toolDescriptions,
} from '../../../../src/core/tools';
import { LanguageModelTools } from '../../../../src/shared/ids';

interface ToolContribution {
  name: string;
  displayName: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  userDescription: string;
  modelDescription: string;
  inputSchema: unknown;
  icon?: string;
}

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { languageModelTools: ToolContribution[] };
};

describe('tool schemas and descriptions (one definition for VS Code and MCP)', () => {
  const tools = manifest.contributes.languageModelTools;
  const descriptions = toolDescriptions({
    search: LanguageModelTools.searchDocs,
    check: LanguageModelTools.checkAnswer,
  });

  it('package.json contributes the two tools under the names the host registers, referable as #evidentDocs and #evidentCheck', () => {
    assert.deepEqual(
      tools.map((t) => [t.name, t.toolReferenceName, t.canBeReferencedInPrompt]),
      [
        [LanguageModelTools.searchDocs, LanguageModelTools.searchReference, true],
        [LanguageModelTools.checkAnswer, LanguageModelTools.checkReference, true],
      ],
    );
    assert.equal(LanguageModelTools.searchReference, 'evidentDocs');
    for (const t of tools) {
      assert.ok(t.displayName && t.userDescription, t.name);
      assert.match(t.icon ?? '', /^\$\([a-z-]+\)$/, `${t.name} has a codicon`);
    }
  });

  it('declares exactly the core input schemas and model descriptions', () => {
    assert.deepEqual(tools[0].inputSchema, JSON.parse(JSON.stringify(SEARCH_INPUT_SCHEMA)));
    assert.deepEqual(tools[1].inputSchema, JSON.parse(JSON.stringify(CHECK_INPUT_SCHEMA)));
    assert.equal(tools[0].modelDescription, descriptions.search);
    assert.equal(tools[1].modelDescription, descriptions.check);
  });

  it('tells an agent to search, answer with ids, then check before replying', () => {
    assert.match(
      descriptions.search,
      /before answering.*\[E2\].*never invent one.*Before you reply, call evident_checkAnswer/s,
    );
    assert.match(
      descriptions.check,
      /evident_searchDocs.*without an id are checked against passages retrieved.*before replying/s,
    );
    assert.ok(
      !JSON.stringify(toolDescriptions({ search: 'search_docs', check: 'check_answer' })).includes('evident_'),
      'the MCP names appear in the MCP descriptions',
    );
  });

  it('states the bounds the input check enforces', () => {
    assert.equal(SEARCH_INPUT_SCHEMA.properties.k.maximum, MAX_SEARCH_K);
    assert.match(
      CHECK_INPUT_SCHEMA.properties.answer.description,
      new RegExp(MAX_ANSWER_CHARS.toLocaleString('en-US')),
    );
    assert.deepEqual([...SEARCH_INPUT_SCHEMA.required], ['query']);
    assert.deepEqual([...CHECK_INPUT_SCHEMA.required], ['answer']);
  });
});
