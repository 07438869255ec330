// Questions of the scale benchmark: about both shared corpora (a handbook and a project's
// community docs), written for the benchmark; timing only, no answers are judged.
export const SCALE_QUESTIONS = [
  'How much annual leave do I accrue per pay period?',
  'What do I need to do before booking travel?',
  'How do I request a laptop?',
  'What is the policy on working remotely from another state?',
  'Who approves overtime?',
  'How do I report a security incident?',
  'How do I become a reviewer for a special interest group?',
  'What is the process for proposing an enhancement?',
  'How are release team shadows selected?',
  'What does a SIG chair do?',
  'How do I run the end-to-end tests locally?',
  'What is the code of conduct committee responsible for?',
  'How long is the lazy consensus period?',
  'Where are community meeting notes kept?',
  'How do I get membership in the organization?',
  'What labels does a pull request need before it merges?',
  'How do we handle accessibility in design reviews?',
  'What are the rules for accepting gifts?',
  'How do I deprecate a feature flag?',
  'What is the on-call rotation for test infrastructure?',
];
