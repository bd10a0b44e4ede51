#!/usr/bin/env node
// zpl-server: the standalone server (`npm start`, the container, `npx zpl-server` from the installed package).
// Its settings are environment variables (docs/configuration.md).

import { startServer } from '../server/server.js';

startServer();
