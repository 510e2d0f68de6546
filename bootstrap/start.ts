import { enableCompileCache } from 'node:module';

// `npm start`'s entry: Node keeps the compiled code of the service's modules on disk (in the system's temporary
// folder) and a later start reads it back instead of compiling every module again, which is most of a restart's
// time on a small box (docs/performance.md). Then the service itself starts (main.ts).
enableCompileCache();
await import('./main.js');
