// Native addons (better-sqlite3, later) build with node-gyp against the local Node headers,
// because the machines we run on cannot download them. pnpm 12 ignores `nodedir` in .npmrc.
module.exports = {
  hooks: {
    updateConfig(config) {
      config.extraEnv = { ...config.extraEnv, npm_config_nodedir: process.env.npm_config_nodedir || '/usr' };
      return config;
    },
  },
};
