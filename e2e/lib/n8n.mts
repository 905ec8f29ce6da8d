// Helpers to drive the cached real n8n (see e2e/install-n8n.mts) from end-to-end tests.
// Every helper is bounded in time and, on failure, throws an error with the tail of n8n's output.
// This module gathers them; each concern lives in its own file beside it:
//   n8nPackage.mts  the packed package and its install into an n8n user folder
//   n8nCli.mts      one-shot commands (import, publish, execute) and what `n8n execute` prints
//   n8nServer.mts   `n8n start` and `n8n worker`
//   n8nRest.mts     the REST API as the editor uses it (owner, workflows, executions)
//   n8nState.mts    what n8n leaves on disk: type files, its SQLite database, flatted data
export { N8N_BIN, NODE_BIN, PROFILE, REPO_ROOT, n8nEnv } from '../n8n-installation.mts';
export {
	PACKAGE_NAME,
	installPackageIntoN8n,
	installedPackageDir,
	makeUserFolder,
	packPackage,
	removeUserFolder,
} from './n8nPackage.mts';
export type { InstallPackageOptions, PackOptions, PackedPackage } from './n8nPackage.mts';
export {
	N8N_COMMAND_TIMEOUT_MS,
	activateWorkflow,
	executeWorkflow,
	getFreePort,
	importCredential,
	importWorkflow,
	nodeOutput,
	parseExecutionOutput,
	publishWorkflow,
	runN8n,
} from './n8nCli.mts';
export type {
	ExecuteResult,
	ExecutionData,
	N8nCommandOptions,
	N8nError,
	N8nRun,
	NodeItem,
	NodeRun,
	RunN8nOptions,
} from './n8nCli.mts';
export { startN8n, startN8nWorker } from './n8nServer.mts';
export type {
	N8nServerProcess,
	StartN8nOptions,
	StartN8nWorkerOptions,
	StartedN8n,
	StartedN8nWorker,
} from './n8nServer.mts';
export {
	activateWorkflowAsEditor,
	deactivateWorkflowAsEditor,
	getExecution,
	hasEnded,
	listExecutions,
	login,
	n8nFetch,
	postToWebhook,
	restGet,
	restPost,
	runWorkflowAsEditor,
	setupOwner,
	waitForExecutionEnd,
	waitForExecutions,
} from './n8nRest.mts';
export type { Execution, ExecutionSummary, OwnerAccount, OwnerSession } from './n8nRest.mts';
export { listDir, parseFlatted, queryDb, readTypeFile, waitForTypes } from './n8nState.mts';
export type { TypeDescription, TypeFileName } from './n8nState.mts';
