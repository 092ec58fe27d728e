// The VS Code side of anynt's editor support: the grammar and the language
// configuration are declared in package.json; this starts anynt lsp, the
// language server, for .anynt files (docs/editors.md).
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('anynt').get('path') || 'anynt';
  client = new LanguageClient(
    'anynt',
    'anynt',
    { command, args: ['lsp'] },
    {
      documentSelector: [
        { scheme: 'file', language: 'anynt' },
        { scheme: 'untitled', language: 'anynt' },
      ],
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
