// The helpers that drive the cached real n8n (e2e/install-n8n.mts), gathered from n8nPackage,
// n8nCli (its commands and servers) and n8nRest (its REST API and its files).
export { PROFILE, REPO_ROOT } from '../n8n-installation.mts';
export * from './n8nPackage.mts';
export * from './n8nCli.mts';
export * from './n8nRest.mts';
