// What `npm run dev` (scripts/dev.mts) prints once everything is up: where n8n and the sandbox
// are, how to log in, and what to try first, with control-plane calls as curl lines.
import { PACKAGE_NAME } from '../../e2e/lib/n8n.mts';
import { DEV_OWNER, SANDBOX_CREDENTIAL_NAME } from '../../e2e/lib/fixtures.mts';
import { FILES_DIR, PDF_PATH, show, type DevState, type ExampleWorkflow } from './lib.mts';
import { procs } from './processes.mts';
import { LIST_SESSIONS_HOURLY_BUDGET } from '../../nodes/AirSign/helpers/constants.ts';

/** A session as the sandbox's control plane lists and answers it: the fields read here. */
export interface DemoSession {
	sessionId: string;
	name: string;
	status: string;
	recipients: Array<{ email?: string | null; status: string }>;
}

/** One control-plane call, printed as curl and made by --smoke. */
export type ControlPlaneCall = {
	method: string;
	url: string;
	body: { email?: string; name?: string };
};
/** The pending sessions the calls use, and the calls. */
export type DemoCalls = ReturnType<typeof demoCalls>;

/** A session's control-plane URL. */
const at = (s: DemoSession | undefined): string =>
	`${procs.sandbox!.url}/_sandbox/sessions/${s?.sessionId ?? '<sessionId>'}`;

/**
 * The control-plane calls the banner prints as curl lines (and `--smoke` makes): a recipient of the
 * pending demo session with the most signers signs; every signer of another pending session signs,
 * which completes it.
 */
export function demoCalls(pending: DemoSession[]) {
	const signers = (s: DemoSession) =>
		s.recipients.filter((r) => r.email && r.status !== 'completed');
	const bySigners = [...pending].sort((a, b) => signers(b).length - signers(a).length);
	const toSign: DemoSession | undefined = bySigners[0];
	const toSet = bySigners.find((s) => s !== toSign) ?? toSign;
	const signer = toSign && signers(toSign)[0]?.email;
	return {
		toSign,
		toSet,
		sign: {
			method: 'POST',
			url: `${at(toSign)}/sign`,
			body: signer ? { email: signer } : {},
		} as ControlPlaneCall,
		complete: { method: 'POST', url: `${at(toSet)}/complete`, body: {} } as ControlPlaneCall,
	};
}

const curl = ({ method, url, body }: ControlPlaneCall): string[] => [
	`       curl -s -X ${method} ${url} \\`,
	`            -H 'content-type: application/json' -d '${JSON.stringify(body)}'`,
];

/** Minutes between the polls of an example's trigger, as its Poll Times say ("every X minutes"). */
function pollMinutes(workflows: ExampleWorkflow[], id: string): number {
	const trigger = workflows
		.find((wf) => wf.id === id)
		?.nodes.find((n) => n.type === `${PACKAGE_NAME}.airSignTrigger`);
	const [time] =
		(trigger?.parameters?.pollTimes as { item?: Array<{ mode: string; value?: number }> })?.item ??
		[];
	if (time?.mode !== 'everyX' || !time.value)
		throw new Error(`the trigger of ${id} does not poll every X minutes`);
	return time.value;
}

export function banner(
	url: string,
	state: DevState,
	{ toSign, toSet, sign, complete }: DemoCalls,
	workflows: ExampleWorkflow[],
): void {
	const notify = pollMinutes(workflows, 'AirSignExNotify1');
	const signed = pollMinutes(workflows, 'AirSignExSigned1');
	const polls = { notify, signed, perHour: 60 / notify + 60 / signed };
	const sandbox = procs.sandbox!;
	const wfUrl = (id: string): string => `${url}/workflow/${id}`;
	const lines = [
		'',
		'─'.repeat(78),
		` n8n with ${PACKAGE_NAME} is ready:  ${url}`,
		`   log in as  ${state.owner?.email ?? DEV_OWNER.email}  /  ${state.owner?.password ?? DEV_OWNER.password}`,
		` AirSign sandbox (demo data):      ${sandbox.url}`,
		`   control plane                   ${sandbox.url}/_sandbox/state`,
		`   credential in n8n               "${SANDBOX_CREDENTIAL_NAME}" (client demo-client / demo-secret)`,
		` scripted demo model (item 6):     ${procs.model!.baseUrl}`,
		'',
		' Try first:',
		`  1. Open "AirSign: send every draft" (${wfUrl('AirSignExSendDr1')}) and click`,
		'     "Execute workflow": it lists the drafts and sends each; incomplete drafts',
		'     come out as error items. See the invitations:',
		`       curl -s ${sandbox.url}/_sandbox/outbox`,
		'     Run it again after making a new draft:',
		`       curl -s -X POST ${sandbox.url}/_sandbox/sessions -H 'content-type: application/json' \\`,
		`            -d '{"name":"My contract","recipients":[{"name":"Ann","email":"ann@example.com"}]}'`,
		`  2. "AirSign: upload a PDF" (${wfUrl('AirSignExUpload1')}) uploads`,
		`     ${show(PDF_PATH)} (n8n may read files in ${show(FILES_DIR)}/ only).`,
		`  3. "AirSign: a failed send does not stop the workflow" (${wfUrl('AirSignExCoFail1')}).`,
		`  4. The trigger: open "AirSign: notify when a session is completed"`,
		`     (${wfUrl('AirSignExNotify1')}), click "Publish" (activates it), then complete a session`,
		`     (${toSet ? `"${toSet.name}": ` : ''}every signer who has not signed signs):`,
		...curl(complete),
		`     After the trigger's next poll or the one after (it polls every ${polls.notify} minutes), an`,
		'     execution shows under Executions.',
		'     Renaming it afterwards starts none:',
		...curl({ method: 'PATCH', url: at(toSet), body: { name: 'Renamed' } }),
		'     (the same PATCH with {"status":"cancelled"} or {"status":"expired"} gives Session',
		'     Cancelled or Session Expired).',
		`  5. "AirSign: when a signer signs, tell the sales owner" (${wfUrl('AirSignExSigned1')}):`,
		`     publish it, then make a recipient${toSign ? ` of "${toSign.name}"` : ''} sign (-d '{}': the next signer;`,
		'     when everyone has signed, the session is completed):',
		...curl(sign),
		'     One item per signature; the message for the sales owner is in the second node.',
		`     This trigger polls every ${polls.signed} minutes: published together, the two spend ${polls.perHour} of the`,
		`     ${LIST_SESSIONS_HOURLY_BUDGET} List Sessions requests AirSign allows an hour, leaving the rest for Get Many.`,
		`  6. The AI agent: open "AirSign: contract assistant" (${wfUrl('AirSignExAgent01')}),`,
		'     click "Open chat" and ask for a contract. Its model is a local script (it always drafts',
		"     Jane Citizen's employment contract): the draft waits for approval; approve it with",
		`       curl -s -X POST '<approvalUrl of "Ask for approval">' -H 'content-type: application/json' -d '{"approved":true}'`,
		'     and Send emails the recipients (docs/ai-agents.md).',
		'',
		` Rebuild after changing nodes/ or credentials/: Ctrl-C and run npm run dev again.`,
		' Ctrl-C stops n8n, the sandbox and the demo model. A fresh n8n: npm run dev -- --reset',
		'─'.repeat(78),
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
}
