// The app's workspace: project files and a local shell. Tools are renamed,
// one is turned off, and deleting asks first.
import { LocalFilesystem, LocalSandbox, WORKSPACE_TOOLS, Workspace } from "@mastra/core/workspace";

export const workspace = new Workspace({
  filesystem: new LocalFilesystem({ basePath: "./project" }),
  sandbox: new LocalSandbox({ workingDirectory: "./project" }),
  tools: {
    [WORKSPACE_TOOLS.FILESYSTEM.READ_FILE]: { name: "read_file" },
    [WORKSPACE_TOOLS.FILESYSTEM.DELETE]: { name: "delete_file", requireApproval: true },
    [WORKSPACE_TOOLS.FILESYSTEM.AST_EDIT]: { enabled: false },
    [WORKSPACE_TOOLS.SANDBOX.EXECUTE_COMMAND]: { name: "execute_command" },
  },
});
