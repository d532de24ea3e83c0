/** Child process of the stdio benchmark: the official SDK 2.4.0 server on this process's stdio. */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createOfficialServer } from './server-fixtures';

serveStdio(() => createOfficialServer());
