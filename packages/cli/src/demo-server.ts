/** The demo server on stdio, as `twofold demo` starts it (a file of its own: no CLI loaded). */
import { serveStdio } from '@twofold/server/node';
import { createDemoServer } from './demo/server';

void serveStdio(createDemoServer());
