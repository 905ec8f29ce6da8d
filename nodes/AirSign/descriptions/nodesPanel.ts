/**
 * The one description both nodes carry. n8n's nodes panel shows the action node and its trigger as
 * one entry, AirSign, and gives it the trigger's description (its node creator,
 * useActionsGeneration.ts), so the text says what the entry holds: the operations and the events.
 */
export const AIRSIGN_DESCRIPTION =
	'Create signing sessions from documents, PDFs and templates, send them, remind signers, read sessions and templates, and start workflows when a session changes in AirSign';
