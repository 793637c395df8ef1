package provider

import (
	"net"
	"net/http"
	"time"
)

// newHTTPClient builds the client every provider request goes through. It
// owns its transport so that nothing is taken from the environment
// (Proxy nil: HTTP_PROXY and friends are ignored) and it never follows a
// redirect: CheckRedirect hands the 3xx back to us, which reports
// redirect_blocked without sending anything to the Location.
func newHTTPClient() *http.Client {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
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
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
