// Entry point of the sandboxed fs helper (dist/fs-helper.js): the executor starts it inside the
// sandbox and speaks the helper protocol on its stdin/stdout.
import { runFsHelper } from './internal/fs-helper-main.js';

await runFsHelper(process.stdin, process.stdout);
