import { ConfigError, type Config } from '../config/config.js';
import { configFromEnvironment } from '../config/env.js';

/** The settings from the environment; a malformed one ends the process with its message and EX_CONFIG (78). */
export function configOrExit(): Config {
  try {
    return configFromEnvironment();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
