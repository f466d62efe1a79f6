// `environment/add`, `environment/info` and `environment/status`: the executors threads can run on.
import * as z from 'zod';
import { EnvironmentAddParams } from '../environments/environment-manager.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { lazySchema } from '@skein/protocol';

const EnvironmentIdParams = lazySchema(() => z.object({ environmentId: z.string() }));

/** The `environment/*` methods. */
export const ENVIRONMENT_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'environment/add',
    defineMethod({
      experimental: true,
      params: EnvironmentAddParams,
      async handle(params, context) {
        await context.server.threads.environments.add(params);
        return {};
      },
    }),
  ],
  [
    'environment/info',
    defineMethod({
      experimental: true,
      params: EnvironmentIdParams,
      handle(params, context) {
        return context.server.threads.environments.info(params.environmentId);
      },
    }),
  ],
  [
    'environment/status',
    defineMethod({
      experimental: true,
      params: EnvironmentIdParams,
      handle(params, context) {
        return context.server.threads.environments.status(params.environmentId);
      },
    }),
  ],
]);
