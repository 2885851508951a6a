// Settings uWebSockets.js reads from the environment once, when its native module loads: this module is
// imported by main.ts before anything that imports uWS, so that they are in place by then.
//
// The request head (request line and headers): uWS answers a longer one with its own 431 page. Its default,
// 4 KiB, refused real clients (a 3,900-byte header passed, 4,000 bytes did not: a long bearer token, a
// proxy's forwarding headers and cookies add up); 16 KiB leaves them room and still bounds what one
// connection can make us buffer. docs/api.md "Limits"; an operator's own UWS_HTTP_MAX_HEADERS_SIZE is kept.
export const request_head_bytes_max = 16 * 1024;

process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= String(request_head_bytes_max);
