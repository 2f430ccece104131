// The certified OpenID provider (panva's oidc-provider) as the backend's sign-in tests start it, with
// its defaults but for what a test must steer: who signs in at the next interaction (or that the
// person cancels), the accounts' claims, whether PKCE is required. Profile claims stay in UserInfo,
// not in the ID token (the provider's default), as with many real providers.
//   node provider.mjs '{"port": 0, "redirectUris": [...], "postLogoutRedirectUris": [...], "requirePkce": true}'
// It prints "listening <port>" once it answers. Test hooks, under /test/:
//   POST /test/accounts {"<id>": {claims}}      the accounts and their claims
//   POST /test/next {"accountId": "<id>"}       who signs in at the next login prompt ({"deny": true}: cancels)
//   GET  /test/prompts                          the prompts shown so far (login, consent)
import http from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
const accounts = {};
let next = null;
const prompts = [];

const server = http.createServer();
server.listen(options.port ?? 0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'spot',
        client_secret: 'spot-secret',
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'given_name', 'family_name', 'name', 'locale'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    scopes: ['openid', 'profile', 'email', 'groups'],
    pkce: { required: () => Boolean(options.requirePkce) },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, id) {
      if (!accounts[id]) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  provider.proxy = false;
  const handle = provider.callback();

  server.on('request', async (req, res) => {
    try {
      if (req.url.startsWith('/test/')) return await test(req, res);
      if (req.url.startsWith('/interaction/')) return await interaction(provider, req, res);
      return handle(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  console.log(`listening ${port}`);
});

async function body(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

async function test(req, res) {
  if (req.url === '/test/accounts' && req.method === 'POST') Object.assign(accounts, await body(req));
  else if (req.url === '/test/next' && req.method === 'POST') next = await body(req);
  else if (req.url === '/test/prompts') return json(res, prompts);
  else return json(res, { error: 'unknown' }, 404);
  return json(res, { ok: true });
}

function json(res, value, status = 200) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(value));
}

// The person at the provider's pages: signs in as the test said (or cancels), then consents.
async function interaction(provider, req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  prompts.push(prompt.name);
  if (next?.deny) {
    next = null;
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled' }, { mergeWithLastSubmission: false });
  }
  if (prompt.name === 'login') {
    const accountId = next?.accountId;
    next = null;
    if (!accountId) return json(res, { error: 'nobody to sign in: POST /test/next first' }, 409);
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }
  const grant = new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  grant.addOIDCScope(params.scope);
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
