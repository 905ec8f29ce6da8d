// Helpers to drive the cached real n8n (see e2e/install-n8n.mts) from end-to-end tests, each
// bounded in time and throwing with the tail of n8n's output. This module gathers them:
//   n8nPackage.mts  the packed package and its install into an n8n user folder
//   n8nCli.mts      one-shot commands (import, publish, execute) and what `n8n execute` prints
//   n8nServer.mts   `n8n start` and `n8n worker`
//   n8nRest.mts     the REST API as the editor uses it (owner, workflows, executions)
//   n8nState.mts    what n8n leaves on disk: type files, its SQLite database, flatted data
export { PROFILE, REPO_ROOT } from '../n8n-installation.mts';
export {
	PACKAGE_NAME,
	installPackageIntoN8n,
	installedPackageDir,
	makeUserFolder,
	packPackage,
	removeUserFolder,
} from './n8nPackage.mts';
export {
	activateWorkflow,
	executeWorkflow,
	getFreePort,
	importCredential,
	importWorkflow,
	nodeOutput,
} from './n8nCli.mts';
export type { N8nRun, NodeRun } from './n8nCli.mts';
export { startN8n, startN8nWorker } from './n8nServer.mts';
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
export type { Execution, ExecutionSummary } from './n8nRest.mts';
export { parseFlatted, queryDb, readTypeFile, waitForTypes } from './n8nState.mts';
