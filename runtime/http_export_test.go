package runtime

import "context"

// SendRelated sends msg within the exchange of the call whose handler got
// ctx, as progress and log notifications do.
func SendRelated(ctx context.Context, msg []byte) error {
	return ctx.(*callContext).r.related(msg)
}
