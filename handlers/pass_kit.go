package handlers

import (
	"cmp"
	"fmt"
	"io/fs"
	"lk/handlers/web"
	"net/http"
	"slices"

	"lk/wallet"
)

// Wallet makes the orders' passes; without a Signer the pages offer none.
type Wallet struct {
	Signer *wallet.Signer
	// Places are where the lock screen offers a pass, near the resort.
	Places []wallet.Location
	// MeetingPoint is where a lesson's group meets its instructor.
	MeetingPoint string
}

type passKit struct {
	Wallet
	images []wallet.File
}

// The passes' images, in static/img/pass (islands/icons.mjs draws them).
var passImages = []string{"icon.png", "icon@2x.png", "icon@3x.png", "logo.png", "logo@2x.png", "logo@3x.png"}

func newPassKit(w Wallet, static fs.FS) (*passKit, error) {
	if w.Signer == nil {
		return nil, nil
	}
	k := &passKit{Wallet: w}
	k.Places = slices.Clone(w.Places)
	for i := range k.Places {
		k.Places[i].RelevantText = cmp.Or(k.Places[i].RelevantText, msgPassNear)
	}
	for _, name := range passImages {
		b, err := fs.ReadFile(static, "img/pass/"+name)
		if err != nil {
			return nil, fmt.Errorf("handlers: a pass image: %w", err)
		}
		k.images = append(k.images, wallet.File{Name: name, Data: b})
	}
	return k, nil
}

func passGone(msg string) *web.Error {
	return &web.Error{Status: http.StatusGone, Title: msgPassTitle, Message: msg}
}
