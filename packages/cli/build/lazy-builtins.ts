// An esbuild plugin for the CommonJS bundles (tsup.config.ts): Node builtins a start seldom needs are
// required when the program first reads one of their exports, not when the module that imports them
// is evaluated. Node compiles a builtin's functions on every start (its code cache holds only the
// top level), so `node:crypto`, `node:child_process` and the others cost an app-server start
// ~3 ms before its first answer, though `initialize` uses none of them (issue #18).
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const NAMESPACE = 'skein-lazy-builtin';

/** Makes each of `builtins` (names without `node:`) load on its first use in the bundle. */
export function lazyBuiltins(builtins: readonly string[]): EsbuildPlugin {
  const filter = new RegExp(`^(node:)?(${builtins.join('|')})$`);
  return {
    name: 'skein-lazy-builtins',
    setup(build) {
      build.onResolve({ filter }, (args) => {
        const name = args.path.replace(/^node:/, '');
        // The stand-in's own `require` is the real builtin.
        return args.namespace === NAMESPACE ? { path: `node:${name}`, external: true } : { path: name, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ loader: 'js', contents: standIn(args.path) }));
    },
  };
}

// esbuild reads an import through the object it got from `require` at each use (`import_crypto.randomUUID`),
// after copying that object's own properties into a namespace whose prototype is the object's
// (`__toESM`). The stand-in has no own properties and a prototype that requires the builtin on the
// first property it is asked for; `__esModule` is answered without, as esbuild asks it while copying.
// What a stand-in cannot be: called (so no `assert`, whose export is a function), enumerated (its
// keys read as none) or written through (an assignment lands on the stand-in): give it only builtins
// the bundled code reads property by property.
function standIn(builtin: string): string {
  return `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(`node:${builtin}`)}));
const lookup = new Proxy({}, {
  get: (_target, key) => (key === '__esModule' ? undefined : load()[key]),
  has: (_target, key) => key in load(),
});
module.exports = Object.create(lookup);
`;
}
