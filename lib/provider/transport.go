package provider

import (
	"net"
	"net/http"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// roundTripper is what provider requests go through: one physical HTTP
// exchange, nothing more.
type roundTripper interface {
	RoundTrip(*http.Request) (*http.Response, error)
}

// newTransport builds the transport every provider request goes through.
// It owns its configuration so that nothing is taken from the environment
// (Proxy nil: HTTP_PROXY and friends are ignored).
//
// Requests are sent with Transport.RoundTrip rather than http.Client.Do:
// a client has redirect machinery even when CheckRedirect returns
// http.ErrUseLastResponse — it parses the Location first and fails with an
// error quoting it when it is malformed, which would both misclassify the
// redirect and leak a secret-bearing Location into messages. RoundTrip
// hands every 3xx back untouched; checkStatus reports it as
// redirect_blocked with a sanitized destination.
func newTransport() roundTripper {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     false,
		MaxIdleConns:          16,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		// Compression would hide SSE chunk boundaries behind gzip buffering.
		DisableCompression: true,
	}
}

// userAgent identifies Fluzo to servers.
var userAgent = "fluzo/" + core.Version
