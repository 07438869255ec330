// Where the real all-MiniLM-L6-v2 lives on a developer's or CI machine: the rule is the CLI's
// (src/cli/fetchedModel.ts), which loads that folder by default; fetch-model, the tests and the
// benchmarks read it from here.

export { defaultModelDir, MODEL_STAMP, type ModelStamp } from '../../src/cli/fetchedModel';
