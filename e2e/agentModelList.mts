// Agent check p (run by e2e/agent.mts): the model list n8n's editor shows for the OpenAI Chat Model
// of examples/contract-assistant.json comes from the scripted server.
import assert from 'node:assert/strict';
import { SCRIPTS } from './lib/agentScripts.mts';
import { restPost } from './lib/n8n.mts';
import type { AgentCheckContext } from './agentShared.mts';

/**
 * p. The editor's model list: what n8n asks when the Model field's list opens
 * (`searchModels` of lmChatOpenAi, through POST /rest/dynamic-node-parameters/resource-locator-results).
 */
export async function checkModelList({
	fake,
	instance,
	cookie,
	example,
}: AgentCheckContext): Promise<string> {
	const model = example.nodes.find((n) => n.name === 'OpenAI Chat Model')!; // the example's model
	const { data } = (await restPost(
		instance.url,
		'/rest/dynamic-node-parameters/resource-locator-results',
		cookie,
		{
			nodeTypeAndVersion: { name: model.type, version: model.typeVersion },
			path: 'parameters.model',
			methodName: 'searchModels',
			currentNodeParameters: model.parameters,
			credentials: model.credentials,
			filter: '',
		},
	)) as { data: { results: { value: string }[] } };
	const names = data.results.map((r) => r.value).sort();
	assert.deepEqual(names, Object.keys(SCRIPTS).sort(), `the list: ${JSON.stringify(data)}`);
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');
	return `the Model list shows ${names.join(', ')} (GET /v1/models)`;
}
