import { existsSync } from 'node:fs';
import { loadConfig, type Config } from './config.js';

/** Reads `.env` when present (the environment wins over it), then parses the environment once. */
export function configFromEnvironment(envFile = '.env'): Config {
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  return loadConfig(process.env);
}
