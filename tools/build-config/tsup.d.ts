// Types for the checked-JavaScript build configuration (tsup.js).
import type { Options } from 'tsup';

export declare function libraryConfig(options?: { entry?: string[]; dtsEntry?: string | string[] }): Options;
