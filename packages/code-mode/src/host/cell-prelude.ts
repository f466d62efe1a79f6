// The globals a cell sees, installed by a script that runs in the isolate before the cell's module:
// `tools`, `ALL_TOOLS`, `text`, `image`, `notify`, `store`, `load`, `setTimeout`, `exit` and
// `yield_control`, as Codex's code mode names them. The host's functions arrive on one object that
// the prelude takes and deletes, so a cell can reach them only through these wrappers, and every
// value crossing the boundary is JSON text.
export const HOST_BRIDGE = '__skein_host';

export const CELL_PRELUDE = `(() => {
  const host = globalThis.${HOST_BRIDGE};
  delete globalThis.${HOST_BRIDGE};
  const { call, emit, keep, stop, after, give } = host;
  // The built-ins the wrappers use, taken before the cell runs: a cell that replaces them changes only its own code.
  const { parse, stringify } = JSON;
  const toText = String;
  const then = Promise.prototype.then;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const infos = parse(host.tools);
  const stored = Object.assign(Object.create(null), parse(host.store));
  const show = (value) => (typeof value === 'string' ? value : (stringify(value) ?? toText(value)));
  const define = (name, value) => defineProperty(globalThis, name, { value, writable: false, configurable: false, enumerable: false });
  const tools = Object.create(null);
  for (const info of infos) {
    const run = (args) => then.call(call(info.name, stringify(args === undefined ? {} : args) ?? 'null'), (json) => parse(json));
    defineProperty(tools, info.name, { value: run, enumerable: true });
  }
  define('tools', freeze(tools));
  define('ALL_TOOLS', freeze(infos.map((info) => freeze({ name: info.name, description: info.description }))));
  define('text', (value) => { emit('text', show(value)); });
  define('notify', (value) => { emit('notify', show(value)); });
  define('image', (value) => {
    const url = typeof value === 'string' ? value : value && typeof value.image_url === 'string' ? value.image_url : undefined;
    const detail = value && typeof value === 'object' ? value.detail : undefined;
    if (url === undefined) throw new TypeError('image() takes an image URL or { image_url, detail? }');
    emit('image', stringify({ url, detail }));
  });
  define('store', (key, value) => {
    const json = stringify(value) ?? 'null';
    keep(toText(key), json);
    stored[toText(key)] = json;
  });
  define('load', (key) => {
    const json = stored[toText(key)];
    return json === undefined ? undefined : parse(json);
  });
  define('setTimeout', (callback, delay) => {
    then.call(after(Number(delay) || 0), () => { if (typeof callback === 'function') callback(); });
    return 0;
  });
  define('exit', () => { stop(); });
  define('yield_control', () => { give(); });
})();`;
