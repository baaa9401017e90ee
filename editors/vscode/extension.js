// Starts the marbles language server (`marbles lsp`, over stdio) for .marble files. It needs the
// vscode-languageclient package (`npm install` in this folder); without it the extension still
// gives the language, its grammar and its configuration, and starts no server.
const vscode = require('vscode');

let client;

function activate(context) {
  let languageClient;
  try {
    languageClient = require('vscode-languageclient/node');
  } catch (error) {
    return;
  }
  const command = vscode.workspace.getConfiguration('marbles').get('path', 'marbles');
  const server = { command, args: ['lsp'] };
  client = new languageClient.LanguageClient('marbles', 'marbles lsp', server, {
    documentSelector: [{ scheme: 'file', language: 'marble' }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
