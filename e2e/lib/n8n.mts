// The helpers that drive the cached real n8n (e2e/install-n8n.mts), gathered from n8nPackage,
// n8nCli, n8nServer, n8nRest and n8nState.
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
