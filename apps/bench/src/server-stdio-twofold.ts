/** Child process of the stdio benchmark: the twofold server on this process's stdio. */
import { serveStdio } from '@twofold/server/node';
import { createTwofoldServer } from './server-fixtures';

await serveStdio(createTwofoldServer());
