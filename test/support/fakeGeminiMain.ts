// Command line for the fake Gemini server, for end-to-end runs where the extension reaches
// it through GOOGLE_GEMINI_BASE_URL:
//   node --import tsx test/support/fakeGeminiMain.ts [--port N] [--script FILE.json] [--mode NAME]
// Requests with the googleSearch tool get the canned grounded answer; other requests get the
// scripted replies first, then the mode (if any). Prints `listening <url>` on stdout
// when ready and one line per request on stderr; stops on SIGINT/SIGTERM. Exit 2 on bad
// arguments or a bad script file.

import { FakeGeminiServer } from './fakeGemini';
import { MODES, groundedDemoReply, isGoogleSearchRequest, isMode, modeScript, readScriptFile } from './fakeGeminiModes';

const USAGE = `usage: fakeGeminiMain [--port N] [--script FILE.json] [--mode ${MODES.join('|')}]`;

interface Options {
  port: number;
  script?: string;
  mode?: string;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag !== '--port' && flag !== '--script' && flag !== '--mode') throw new Error(`unknown argument "${flag}"`);
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    i++;
    if (flag === '--port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new Error(`--port must be an integer 0..65535, got "${value}"`);
      }
      options.port = port;
    } else if (flag === '--script') {
      options.script = value;
    } else {
      options.mode = value;
    }
  }
  if (options.mode !== undefined && !isMode(options.mode)) {
    throw new Error(`unknown mode "${options.mode}" (known: ${MODES.join(', ')})`);
  }
  return options;
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`fakeGemini: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  let replies;
  try {
    replies = options.script ? await readScriptFile(options.script) : [];
  } catch (error) {
    process.stderr.write(`fakeGemini: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const server = await FakeGeminiServer.start({
    port: options.port,
    // One line per request on stderr: enough to see what the extension sent when an e2e test fails.
    onRequest: (req) =>
      process.stderr.write(
        `request ${req.method} ${req.model} contents=${Array.isArray(req.body.contents) ? req.body.contents.length : 0}\n`,
      ),
  });
  server.enqueue(...replies);
  // Google Search grounding requests get the canned grounded answer, before any queued reply.
  server.respondFirst((req) => (isGoogleSearchRequest(req.body) ? groundedDemoReply() : undefined));
  if (options.mode !== undefined && isMode(options.mode)) server.respondWith(modeScript(options.mode));
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`listening ${server.baseUrl}\n`);
}

void main();
