// Command rssserver serves one tool, echo, over stdio with a memory budget:
// the server of TestMemoryBudgetRSS, built without the race detector so
// that its resident memory is the runtime's own.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

func main() {
	budget := flag.Int("budget", 16<<20, "memory budget in bytes")
	flag.Parse()
	srv := runtime.NewServer("rss", "1.0.0", runtime.WithMemoryBudget(*budget), runtime.WithShutdownGrace(10*time.Millisecond))
	srv.AddTool(runtime.Tool{
		Name:        "echo",
		Description: "Echoes text.",
		InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			var args struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(req.Arguments, &args); err != nil {
				return nil, err
			}
			return runtime.TextResult(args.Text), nil
		},
	})
	if err := srv.ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "ServeStdio:", err)
		os.Exit(1)
	}
}
