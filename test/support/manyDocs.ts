// A docs folder of many small policy documents (text written here, from word lists), for tests
// that need enough passages for several vector commits.

const TOPICS = [
  'travel',
  'lodging',
  'refunds',
  'security',
  'hiring',
  'leave',
  'equipment',
  'training',
  'privacy',
  'expenses',
];
const SECTIONS = ['Who may ask', 'Limits', 'Approval', 'Records'];

/** `count` documents of four sections each (one passage per section). */
export function manyDocs(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const sections = SECTIONS.map(
      (s, j) =>
        `## ${s}\n\nFor ${topic} case ${i}, the ${s.toLowerCase()} rule number ${i * 4 + j} says a manager approves requests up to ${100 + i * 7 + j} dollars within ${j + 2} business days.\n`,
    );
    files[`${topic}/policy-${i}.md`] = `# ${topic} policy ${i}\n\n${sections.join('\n')}`;
  }
  return files;
}
