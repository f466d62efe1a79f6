// Imported first by each bundle the executable runs (bin.ts), never by the library entry: zod
// compiles an object schema's parser with `new Function` the first time it parses, and such code
// is outside the bundle, so V8's code cache (code-cache.ts) cannot keep it: every start compiled its
// parsers again, ~2 ms of an app-server's first answer (issue #18). A start parses each schema a
// few times (config, a request's params), where zod's interpreter costs less than compiling; even
// the 20,000 rollout lines of a large `exec resume` read ~5 % faster. The exec-server is left as
// is: it parses the same few schemas tens of thousands of times a second.
import * as z from 'zod';

z.config({ jitless: true });
