// What global-options loads on demand, as a module of its own: a dynamic import of @skein/config
// itself would keep all its exports in the bundle, `configJsonSchema` and its 225 feature schemas too.
export { loadConfig } from '@skein/config';
