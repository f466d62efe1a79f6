// Non-fatal findings while loading config; `--strict-config` turns the key warnings into errors.
import type { FeatureWarning } from '@skein/features';

/** Something the user should know about their config that does not stop it from loading. */
export interface ConfigWarning {
  readonly code:
    | 'UnknownKey'
    | 'NotYetSupported'
    | 'UntrustedProjectConfig'
    | 'BuiltInProviderRedefined'
    /** An extension config or a flag names that did not load (reported by the host that loads them). */
    | 'ExtensionNotLoaded'
    | FeatureWarning['code'];
  readonly origin: string;
  readonly key: string | undefined;
  /** A complete sentence naming the origin and the key, ready to show. */
  readonly message: string;
}
