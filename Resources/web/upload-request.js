// One guest's photo sent to the server: XMLHttpRequest, because fetch reports no upload progress.

/**
 * POSTs `file` (a File) as the body to `url` with its headers; `progress(sent, total)` follows the
 * bytes. Answers {status, body, retryAfter}; status 0 when no answer came (no connection, a
 * timeout): the caller may retry with the same `key`.
 */
export function sendPhoto({ url, file, token, sender, key }, progress) {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    // The phone's own type; one it does not know (some HEIC) still goes as an image: the server
    // decides from the bytes.
    request.setRequestHeader('Content-Type', file.type.startsWith('image/') ? file.type : 'image/jpeg');
    request.setRequestHeader('Idempotency-Key', key);
    // Headers are bytes: a name with é or an emoji is percent-encoded, as the server expects.
    if (file.name) request.setRequestHeader('X-Photo-Name', encodeURIComponent(file.name));
    if (sender) request.setRequestHeader('X-Photo-Sender', encodeURIComponent(sender));
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.addEventListener('progress', (event) => progress(event.loaded, event.total || file.size));
    request.upload.addEventListener('load', () => progress(file.size, file.size));
    request.addEventListener('load', () => {
      let body = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      resolve({ status: request.status, body, retryAfter: request.getResponseHeader('Retry-After') });
    });
    for (const failed of ['error', 'timeout', 'abort']) {
      request.addEventListener(failed, () => resolve({ status: 0, body: null, retryAfter: null }));
    }
    request.send(file);
  });
}
