#!/usr/bin/env node
// The command the package installs (bin notes-mcp -> dist/index.js, built
// from this file): it starts the server of ./server.js on stdio.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

import { server } from "./server.js";

await server.connect(new StdioServerTransport());
