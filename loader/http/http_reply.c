// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * http_reply.c - the plain-text answers the server gives besides the
 * metrics themselves (403, 404, 405, 401 with its challenge, 429 with
 * Retry-After, 500), queued with libmicrohttpd: for the request handler
 * (metrics_http.c) and the checks of web_auth.c alike.
 */
#include <string.h>

#include "http/http_server.h"

enum MHD_Result http_reply(struct MHD_Connection *c, unsigned int status, const char *text,
			   const char *allow, const char *realm)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								  MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	if (status == MHD_HTTP_TOO_MANY_REQUESTS)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (status == MHD_HTTP_UNAUTHORIZED && realm)
		ret = MHD_queue_basic_auth_fail_response(c, realm, r);
	else
		ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}
