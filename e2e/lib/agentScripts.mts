// The scripted "models" of the agent tests (e2e/scenarios/agent.mts) and of `npm run dev`, and
// the OpenAI credential for lib/fakeOpenAi.mts. A script answers from the conversation, never
// from time.
import type { Conversation, Script, Turn } from './fakeOpenAi.mts';

/** Not a secret: the scripted server only checks that n8n sends what the credential holds. */
export const FAKE_OPENAI_API_KEY = 'sk-airsign-local-demo-not-a-secret';

/** The OpenAI credential of the agent workflows (id and name as in examples/contract-assistant.json). */
export const openAiCredential = (baseUrl: string) => ({
	id: 'AirSignDemoModel1',
	name: 'OpenAI (local scripted demo model)',
	type: 'openAiApi',
	data: { apiKey: FAKE_OPENAI_API_KEY, url: baseUrl, header: false },
});

/** The model names the scripts answer to. */
export const CONTRACT_ASSISTANT_MODEL = 'gpt-4.1-mini';
export const TOOLS_TEST_MODEL = 'airsign-tools-e2e';
export const OUTPUT_TEST_MODEL = 'airsign-output-e2e';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The fields of a tool's output item that the scripts read. */
type ToolItem = {
	name?: unknown;
	status?: unknown;
	templateId?: string;
	id?: string;
	sessionId?: string;
	recipients?: { email: string; status: string }[];
};

/** Items a tool handed back: n8n passes the node's output items' JSON (an array, or one object). */
export function items(result: string | undefined): ToolItem[] {
	try {
		const parsed = JSON.parse(String(result)); // String(): what JSON.parse makes of it anyway
		return Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' ? [parsed] : [];
	} catch {
		return [];
	}
}

/** A call of the tool whose name starts with `prefix` (n8n names a tool after its node: spaces → "_"). */
function call(conversation: Conversation, prefix: string, args: unknown): Turn {
	const names = conversation.tools.map((t) => t.name);
	const name = names.find((n) => n.startsWith(prefix));
	if (!name) throw new Error(`no tool named ${prefix}…; the agent offered: ${names.join(', ')}`);
	return { toolCalls: [{ name, args }] };
}

/** The template "Employment contract" from a List templates result (or any UUID in it). */
function employmentTemplateId(listResult: string | undefined): string | undefined {
	const found = items(listResult).find((t) => /employment contract/i.test(String(t.name)));
	// String(): what RegExp.exec makes of its argument anyway
	return found?.templateId ?? found?.id ?? UUID.exec(String(listResult))?.[0];
}

/** What the "model" fills in for Jane Citizen's contract (the tool's $fromAI parameters). */
export const JANE = {
	employeeName: 'Jane Citizen',
	employeeEmail: 'jane.citizen@example.com',
	position: 'Product Designer',
	startDate: '2026-03-02',
	salary: 98000,
	sessionName: 'Employment contract – Jane Citizen',
};

/** Contract assistant: lists templates, drafts Jane's contract (never sends it), formats. */
function contractAssistantScript(conversation: Conversation): Turn {
	const done = conversation.rounds;
	const list = done.find((r) => r.name.startsWith('List_templates'));
	if (!list) return call(conversation, 'List_templates', {});
	const drafted = done.filter((r) => r.name.startsWith('Draft')).at(-1);
	const draftedId = drafted && items(drafted.result)[0]?.sessionId;
	if (!draftedId) {
		if (drafted) return { text: `The draft failed: ${drafted.result}` };
		const templateId = employmentTemplateId(list.result);
		if (!templateId) return { text: `No employment contract template in: ${list.result}` };
		return call(conversation, 'Draft', { templateId, ...JANE });
	}
	const summary = `Draft "${JANE.sessionName}" for ${JANE.employeeName} <${JANE.employeeEmail}> is ready for approval.`;
	const formatter = conversation.tools.find((t) => t.name === 'format_final_json_response');
	if (formatter && !done.some((r) => r.name === 'format_final_json_response')) {
		// n8n's structured output parser wraps the example's schema in { output }
		const answer = { sessionId: draftedId, summary };
		const args = formatter.parameters?.properties?.output ? { output: answer } : answer;
		return { toolCalls: [{ name: formatter.name, args }] };
	}
	return { text: JSON.stringify({ sessionId: draftedId, summary }) };
}

/** Tools test: templates, a draft (bad email, then fixed), a session's progress, an invitation. */
function toolsTestScript(conversation: Conversation): Turn {
	const { rounds: done, user } = conversation;
	const list = done.find((r) => r.name.startsWith('List_templates'));
	if (!list) return call(conversation, 'List_templates', {});
	const templateId = employmentTemplateId(list.result);
	const drafts = done.filter((r) => r.name.startsWith('Draft'));
	// 1st draft: an email written the way people say it, not an address
	const spoken = 'jane.citizen at example.com';
	if (drafts.length === 0)
		return call(conversation, 'Draft', { templateId, ...JANE, employeeEmail: spoken });
	const lastDraft = drafts.at(-1)!; // drafts is not empty here
	if (!items(lastDraft.result)[0]?.sessionId) {
		if (drafts.length >= 2) return { text: `Drafting failed twice: ${lastDraft.result}` };
		// the model reads the error and corrects the value it names
		return call(conversation, 'Draft', { templateId, ...JANE });
	}
	const pendingId = UUID.exec(user.replace(templateId ?? '', ''))?.[0];
	const progress = done.find((r) => r.name.startsWith('Session_progress'));
	if (!progress) return call(conversation, 'Session_progress', { sessionId: pendingId });
	const waiting = items(progress.result)[0]?.recipients?.find((r) => r.status !== 'completed');
	const invited = done.find((r) => r.name.startsWith('Send_invitation'));
	if (!invited && waiting)
		return call(conversation, 'Send_invitation', {
			sessionId: pendingId,
			recipientEmail: waiting.email,
		});
	return {
		text: `Drafted ${items(lastDraft.result)[0].sessionId}; reminded ${waiting?.email ?? 'nobody'} of ${pendingId}.`,
	};
}

/** Output test: each quoted name looked up (Find sessions, Session statuses), its draft sent. */
function outputTestScript(conversation: Conversation): Turn {
	const { rounds: done, user } = conversation;
	const wanted = [...user.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
	const lookups = ['Find_sessions', 'Session_statuses'];
	const sends = done.filter((r) => r.name.startsWith('Send'));
	const step = sends.length;
	if (step >= wanted.length)
		return { text: `Sent ${sends.map((r) => (r.args as ToolItem).sessionId).join(' and ')}.` };
	const lookup = done.find((r) => r.name.startsWith(lookups[step]));
	if (!lookup) return call(conversation, lookups[step], { nameContains: wanted[step] });
	const draft = items(lookup.result).find((s) => s.name === wanted[step] && s.status === 'draft');
	if (!draft?.sessionId) return { text: `No draft named "${wanted[step]}" in: ${lookup.result}` };
	return call(conversation, 'Send', { sessionId: draft.sessionId });
}

export const SCRIPTS: Record<string, Script> = {
	[CONTRACT_ASSISTANT_MODEL]: contractAssistantScript,
	[TOOLS_TEST_MODEL]: toolsTestScript,
	[OUTPUT_TEST_MODEL]: outputTestScript,
};
