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
  const infos = JSON.parse(host.tools);
  const stored = JSON.parse(host.store);
  const show = (value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: false, configurable: false, enumerable: false });
  const tools = Object.create(null);
  for (const info of infos) {
    const run = (args) => call(info.name, JSON.stringify(args === undefined ? {} : args) ?? 'null').then((json) => JSON.parse(json));
    Object.defineProperty(tools, info.name, { value: run, enumerable: true });
  }
  define('tools', Object.freeze(tools));
  define('ALL_TOOLS', Object.freeze(infos.map((info) => Object.freeze({ name: info.name, description: info.description }))));
  define('text', (value) => { emit('text', show(value)); });
  define('notify', (value) => { emit('notify', show(value)); });
  define('image', (value) => {
    const url = typeof value === 'string' ? value : value && typeof value.image_url === 'string' ? value.image_url : undefined;
    if (url === undefined) throw new TypeError('image() takes an image URL or { image_url, detail? }');
    emit('image', JSON.stringify({ url, detail: value && typeof value.detail === 'string' ? value.detail : undefined }));
  });
  define('store', (key, value) => {
    const json = JSON.stringify(value) ?? 'null';
    stored[String(key)] = json;
    keep(String(key), json);
  });
  define('load', (key) => {
    const json = stored[String(key)];
    return json === undefined ? undefined : JSON.parse(json);
  });
  define('setTimeout', (callback, delay) => {
    after(Math.max(0, Number(delay) || 0)).then(() => { if (typeof callback === 'function') callback(); });
    return 0;
  });
  define('exit', () => { stop(); });
  define('yield_control', () => { give(); });
})();`;
