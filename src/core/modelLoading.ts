// transformers.js keeps its "may I read local folders / download from the hub" switches in one
// global object. The embedder and the entailment scorer both load models; each load runs here,
// one at a time, with the switches it needs, and the previous switches are put back afterwards.

import { importTransformers } from './onnxRuntime';

export interface LoadSwitches {
  allowLocalModels: boolean;
  allowRemoteModels: boolean;
  /** The hub (or mirror) to download from; default: hubEndpoint(). */
  remoteHost?: string;
}

let queue: Promise<unknown> = Promise.resolve();

export function loadModelWith<T>(switches: LoadSwitches, load: () => Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const { env } = (await importTransformers()).transformers;
    const saved: LoadSwitches = {
      allowLocalModels: env.allowLocalModels,
      allowRemoteModels: env.allowRemoteModels,
      remoteHost: env.remoteHost,
    };
    env.allowLocalModels = switches.allowLocalModels;
    env.allowRemoteModels = switches.allowRemoteModels;
    env.remoteHost = `${(switches.remoteHost ?? hubEndpoint()).replace(/\/+$/, '')}/`;
    try {
      return await load();
    } finally {
      env.allowLocalModels = saved.allowLocalModels;
      env.allowRemoteModels = saved.allowRemoteModels;
      env.remoteHost = saved.remoteHost ?? env.remoteHost;
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

/** The model hub to download from: HF_ENDPOINT when set (the usual variable for a mirror), else huggingface.co. */
export function hubEndpoint(env: Record<string, string | undefined> = process.env): string {
  return (env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
}
