/**
 * The variables Node (or the OpenSSL inside it) reads once, when the process starts, that change
 * where the step's requests go or whom they trust. A post step starts with the job's environment,
 * which any later step can extend through `$GITHUB_ENV`, and nothing the post step does afterwards
 * undoes what Node made of them: so the main step saves them (sessions/state.ts), and a post step
 * that finds one changed sends no token anywhere, to the service or to GitHub, and says which.
 *
 * From Node 24's documentation (doc/api/cli.md, "Environment variables"): `NODE_USE_ENV_PROXY` (a
 * global dispatcher and agents bound to the proxy variables as they were at start-up),
 * `NODE_USE_SYSTEM_CA` and `NODE_EXTRA_CA_CERTS` (the trusted certificates), `SSL_CERT_FILE` and
 * `SSL_CERT_DIR` (OpenSSL's trusted certificates, with the system store), `OPENSSL_CONF` (OpenSSL's
 * configuration: protocols, ciphers, providers), and `NODE_OPTIONS`, which can carry the same
 * switches as flags (`--use-env-proxy`, `--use-system-ca`, `--use-openssl-ca`, `--openssl-config`,
 * `--tls-keylog`…); the runner refuses `NODE_OPTIONS` in `$GITHUB_ENV`, but a self-hosted runner's
 * own environment may not.
 */
export const STARTUP_ENV = [
  'NODE_USE_ENV_PROXY',
  'NODE_USE_SYSTEM_CA',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'OPENSSL_CONF',
  'NODE_OPTIONS',
] as const;
