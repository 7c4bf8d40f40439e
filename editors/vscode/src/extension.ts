// Starts `agentc lsp` for the files agentc reads. Everything else — which
// file is which kind, diagnostics, hover, completion, rename — is the server's.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const command = vscode.workspace.getConfiguration("agentc").get<string>("path") || "agentc";
  const server: ServerOptions = { command, args: ["lsp"] };
  const options: LanguageClientOptions = {
    // The server decides which of these files belong to a project.
    documentSelector: [
      { scheme: "file", language: "markdown" },
      { scheme: "file", pattern: "**/*.json" },
      { scheme: "file", pattern: "**/*.{yaml,yml}" },
      { scheme: "file", pattern: "**/agentc.toml" },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*"),
    },
  };
  client = new LanguageClient("agentc", "agentc", server, options);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
