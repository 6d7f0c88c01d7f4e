// The invitation message: who invited, with which role, and where to sign in.
// The address comes from PUBLIC_URL only — never from a request's Host header,
// which the sender of the request controls.

export function invitationMail(opts: {
  inviter: string;
  role: string;
  expiresAt: Date;
  publicUrl: string | undefined;
}): { subject: string; text: string } {
  const base = opts.publicUrl?.replace(/\/+$/, '');
  const lines = [
    `${opts.inviter} invited you to their agent-ledger workspace as ${opts.role}.`,
    '',
    ...(base
      ? [
          `Sign in with this address at ${base}/console/ — a one-time code is e-mailed to you — and you join the workspace.`,
          `Or through the API: POST ${base}/api/v1/accounts/signup {"email": …}, then POST ${base}/api/v1/accounts/verify {"email": …, "code": …}.`,
        ]
      : [
          'Sign in with this address to join: open the agent-ledger console (/console/) of the service your inviter uses,',
          'or through its API: POST /api/v1/accounts/signup {"email": …}, then POST /api/v1/accounts/verify {"email": …, "code": …}.',
        ]),
    `The invitation expires on ${opts.expiresAt.toISOString()}.`,
    '',
  ];
  return { subject: 'You are invited to an agent-ledger workspace', text: lines.join('\n') };
}
