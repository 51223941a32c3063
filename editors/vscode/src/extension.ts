// The VS Code side of acg: starts acg-lsp over stdio for agent code and
// agent configs and adds three commands. Everything else (diagnostics,
// hover, quick fixes, settings) is plain LSP handled by vscode-languageclient.
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  type DocumentSelector,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { renderGraph } from "./graphView";
import { INSTALL_URL, missingServerMessage, resolveServerPath } from "./serverPath";

// Files acg reads: agent code, MCP client configs (Claude, VS Code, Cursor,
// Codex, Gemini CLI, Windsurf, Zed, Continue, Junie), Claude Code settings,
// subagents and the hook scripts they run. Must stay in step with
// activationEvents in package.json.
export const documentSelector: DocumentSelector = [
  { scheme: "file", language: "python" },
  { scheme: "file", language: "typescript" },
  { scheme: "file", language: "typescriptreact" },
  { scheme: "file", language: "javascript" },
  { scheme: "file", language: "javascriptreact" },
  { scheme: "file", pattern: "**/.mcp.json" },
  { scheme: "file", pattern: "**/mcp.json" },
  { scheme: "file", pattern: "**/.codex/config.toml" },
  { scheme: "file", pattern: "**/.gemini/settings.json" },
  { scheme: "file", pattern: "**/mcp_config.json" },
  { scheme: "file", pattern: "**/.zed/settings.json" },
  { scheme: "file", pattern: "**/.continue/**/*.{yaml,yml,json}" },
  { scheme: "file", pattern: "**/.claude/settings*.json" },
  { scheme: "file", pattern: "**/.claude/agents/*.md" },
  { scheme: "file", pattern: "**/.claude-plugin/*.json" },
  { scheme: "file", pattern: "**/hooks/hooks.json" },
  { scheme: "file", pattern: "**/.claude/hooks/**" },
  { scheme: "file", pattern: "**/.claude/**/*.{sh,bash,zsh,js,mjs,cjs,ts}" },
];

let client: LanguageClient | undefined;
let log: vscode.LogOutputChannel;
// Where the extension is installed: a platform-specific .vsix carries
// acg-lsp under server/ there.
let extensionDir: string | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  log = vscode.window.createOutputChannel("acg", { log: true });
  extensionDir = context.extensionPath;
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand("acg.restartServer", restart),
    vscode.commands.registerCommand("acg.rescanWorkspace", rescan),
    vscode.commands.registerCommand("acg.showCapabilityGraph", showGraph),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("acg.server.path")) {
        await restart();
      }
    }),
    { dispose: () => void stop() },
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(): Promise<void> {
  const configured = vscode.workspace.getConfiguration("acg").get<string>("server.path", "");
  const command = resolveServerPath(configured, process.env, extensionDir);
  if (command === undefined) {
    const message = missingServerMessage(configured);
    log.error(message);
    const choice = await vscode.window.showErrorMessage(message, "Install instructions", "Open settings");
    if (choice === "Install instructions") {
      await vscode.env.openExternal(vscode.Uri.parse(INSTALL_URL));
    } else if (choice === "Open settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "acg.server.path");
    }
    return;
  }
  const serverOptions: ServerOptions = { command, transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    outputChannel: log,
    // Sends workspace/didChangeConfiguration when an acg.* setting changes;
    // the server then pulls the section through workspace/configuration.
    synchronize: { configurationSection: "acg" },
  };
  client = new LanguageClient("acg", "acg", serverOptions, clientOptions);
  log.info(`starting ${command}`);
  try {
    await client.start();
  } catch (err) {
    const message = `acg: ${command} failed to start: ${err instanceof Error ? err.message : String(err)}`;
    log.error(message);
    void vscode.window.showErrorMessage(message, "Show log").then((c) => c && log.show());
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    try {
      await c.dispose();
    } catch (err) {
      log.warn(`stopping acg-lsp: ${String(err)}`);
    }
  }
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

async function runServerCommand(command: string): Promise<unknown> {
  if (client === undefined || !client.isRunning()) {
    void vscode.window.showWarningMessage("acg: the language server is not running (see the acg output).");
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] });
}

async function rescan(): Promise<void> {
  const res = (await runServerCommand("acg.rescan")) as { files?: number; findings?: number } | undefined;
  if (res !== undefined && res !== null) {
    void vscode.window.showInformationMessage(`acg: rescanned ${res.files ?? 0} files, ${res.findings ?? 0} findings`);
  }
}

async function showGraph(): Promise<void> {
  const graph = await runServerCommand("acg.showGraph");
  if (graph === undefined || graph === null) {
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ content: renderGraph(graph), language: "markdown" });
  await vscode.commands.executeCommand("markdown.showPreviewToSide", doc.uri);
}
