package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// watchedURI is the resource that changes every few seconds, for clients
// that subscribe to it.
const watchedURI = "test://watched-resource"

// StaticText is the text resource of resources-read-text.
//
//mcp:resource uri=test://static-text name=static-text description="A static text resource"
func StaticText() (string, error) {
	return "This is the content of the static text resource.", nil
}

// StaticBinary is the binary resource of resources-read-binary: a []byte
// result is sent as a base64 blob.
//
//mcp:resource uri=test://static-binary name=static-binary mime=image/png description="A static binary resource: a PNG image"
func StaticBinary() ([]byte, error) {
	return pngData, nil
}

// WatchedResource is the resource of resources-subscribe and
// resources-unsubscribe; watch tells its subscribers when it changes.
//
//mcp:resource uri=test://watched-resource name=watched-resource subscribe description="A resource that changes every 3 seconds; subscribe to hear of it"
func WatchedResource() (string, error) {
	return "Watched resource content at " + time.Now().UTC().Format(time.RFC3339), nil
}

// TemplateData is what test://template/{id}/data reads: the JSON of one id.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

// Template is the resource template of resources-templates-read; a struct
// result is sent as JSON text.
//
//mcp:resource uri=test://template/{id}/data name=template description="A resource template: the data of one id"
func Template(id string) (TemplateData, error) {
	return TemplateData{ID: id, TemplateTest: true, Data: fmt.Sprintf("Data for ID: %s", id)}, nil
}

// watch tells the subscribers of the watched resource that it changed,
// every period until ctx ends.
func watch(ctx context.Context, s *runtime.Server, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.ResourceUpdated(watchedURI)
		}
	}
}
