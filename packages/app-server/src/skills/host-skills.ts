// The skills extension as the app-server installs it by default: settings come from the config a
// thread in that directory would load.
import { skillsSettings, type Config } from '@skein/config';
import { SkillsService } from '@skein/ext-skills';

/** The host's skills service: `configFor` loads the config of a directory. */
export function hostSkillsService(home: string, configFor: (cwd: string) => Promise<Config>): SkillsService {
  return new SkillsService({ home, settings: async (cwd) => skillsSettings(await configFor(cwd)) });
}
