// The status line of every status billvend answers with, written as uWS takes it ("200 OK").

export const status_lines: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 301: '301 Moved Permanently',
  302: '302 Found', 304: '304 Not Modified', 400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden',
  404: '404 Not Found', 405: '405 Method Not Allowed', 409: '409 Conflict', 410: '410 Gone', 413: '413 Payload Too Large',
  415: '415 Unsupported Media Type', 422: '422 Unprocessable Entity', 429: '429 Too Many Requests',
  500: '500 Internal Server Error', 503: '503 Service Unavailable',
};
