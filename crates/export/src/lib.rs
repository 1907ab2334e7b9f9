//! Names runtime exports by the NID of their PS5 name, computed at compile time.
//!
//! * `#[export::nid("sceKernelUsleep")]` on an `extern "sysv64" fn` exports it under the
//!   NID `1jfXLRVzisc`. The body runs inside `catch_unwind`: a panic never unwinds into
//!   guest code; it is reported with the PS5 name and the process aborts.
//! * `#[export::nid("__stack_chk_guard")]` on a `static` exports the data symbol.
//! * `export::nid_str!("printf")` expands to the string literal `"hcuQgD53UxM"`, for
//!   assembly thunks (`global_asm!`) that define variadic exports.
//! * `#[export::nid(raw = "abcdefghijk")]` exports under a raw NID whose name is unknown.
//! * On a `#[unsafe(naked)]` function (an assembly thunk, such as the variadic `printf`
//!   entry) only the export name is added: there is no Rust body to guard.

use proc_macro::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{parse_macro_input, FnArg, Item, LitStr, Pat, Token};

/// The attribute argument: a PS5 name, or `raw = "NID"`.
struct NidArg {
    nid: String,
    display: String,
    raw: bool,
}

impl Parse for NidArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(syn::Ident) {
            let ident: syn::Ident = input.parse()?;
            if ident != "raw" {
                return Err(syn::Error::new(
                    ident.span(),
                    "expected a name string or `raw = \"NID\"`",
                ));
            }
            input.parse::<Token![=]>()?;
            let lit: LitStr = input.parse()?;
            let nid = lit.value();
            if !sce::nid::is_nid(&nid) {
                return Err(syn::Error::new(
                    lit.span(),
                    "a raw NID is 11 characters of the NID alphabet",
                ));
            }
            return Ok(NidArg {
                display: nid.clone(),
                nid,
                raw: true,
            });
        }
        let lit: LitStr = input.parse()?;
        let name = lit.value();
        Ok(NidArg {
            nid: sce::nid_of(&name),
            display: name,
            raw: false,
        })
    }
}

/// Exports a function or static under the NID of the given PS5 name.
#[proc_macro_attribute]
pub fn nid(attr: TokenStream, item: TokenStream) -> TokenStream {
    let arg = parse_macro_input!(attr as NidArg);
    let item = parse_macro_input!(item as Item);
    let nid = &arg.nid;
    let display = &arg.display;
    match item {
        Item::Static(s) => quote! {
            #[doc = concat!("Exported to guests as `", #display, "` (NID `", #nid, "`).")]
            #[unsafe(export_name = #nid)]
            #s
        }
        .into(),
        Item::Fn(f)
            if f.attrs
                .iter()
                .any(|a| quote!(#a).to_string().contains("naked")) =>
        {
            // A naked function (an assembly thunk) has no Rust body to guard.
            quote! {
                #[doc = concat!("Exported to guests as `", #display, "` (NID `", #nid, "`).")]
                #[unsafe(export_name = #nid)]
                #f
            }
            .into()
        }
        Item::Fn(f) => {
            let abi = f
                .sig
                .abi
                .as_ref()
                .and_then(|a| a.name.as_ref())
                .map(|n| n.value());
            match abi.as_deref() {
                Some("sysv64") => {}
                // A function that unwinds on purpose (thread exit) must not be guarded.
                Some("sysv64-unwind") => return quote! {
                    #[doc = concat!("Exported to guests as `", #display, "` (NID `", #nid, "`).")]
                    #[unsafe(export_name = #nid)]
                    #f
                }
                .into(),
                _ => {
                    return syn::Error::new_spanned(
                        &f.sig,
                        "guest exports must be `extern \"sysv64\"`",
                    )
                    .to_compile_error()
                    .into()
                }
            }
            let attrs = &f.attrs;
            let vis = &f.vis;
            let sig = &f.sig;
            let body = &f.block;
            let mut inner_sig = sig.clone();
            inner_sig.abi = None;
            inner_sig.ident = syn::Ident::new("__native5_inner", sig.ident.span());
            let mut args = Vec::new();
            for input in &sig.inputs {
                match input {
                    FnArg::Typed(t) => match &*t.pat {
                        Pat::Ident(p) => {
                            let id = &p.ident;
                            args.push(quote!(#id));
                        }
                        other => {
                            return syn::Error::new_spanned(
                                other,
                                "use plain argument names in exports",
                            )
                            .to_compile_error()
                            .into()
                        }
                    },
                    FnArg::Receiver(r) => {
                        return syn::Error::new_spanned(r, "exports cannot take self")
                            .to_compile_error()
                            .into()
                    }
                }
            }
            let unsafety = &sig.unsafety;
            let call = if unsafety.is_some() {
                // SAFETY is the caller's: the export has the same contract as the inner fn.
                quote!(unsafe { __native5_inner(#(#args),*) })
            } else {
                quote!(__native5_inner(#(#args),*))
            };
            quote! {
                #(#attrs)*
                #[doc = concat!("Exported to guests as `", #display, "` (NID `", #nid, "`).")]
                #[unsafe(export_name = #nid)]
                #vis #sig {
                    #[inline(always)]
                    #inner_sig #body
                    match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| #call)) {
                        Ok(v) => v,
                        Err(payload) => {
                            let msg = payload
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| payload.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "non-string panic".to_string());
                            ::std::eprintln!("native5: panic in {} ({}): {}; aborting", #display, #nid, msg);
                            ::std::process::abort()
                        }
                    }
                }
            }
            .into()
        }
        other => {
            syn::Error::new_spanned(other, "#[nid] goes on an extern \"sysv64\" fn or a static")
                .to_compile_error()
                .into()
        }
    }
}

/// Expands to the NID of a PS5 name as a string literal.
#[proc_macro]
pub fn nid_str(input: TokenStream) -> TokenStream {
    let lit = parse_macro_input!(input as LitStr);
    let nid = sce::nid_of(&lit.value());
    quote!(#nid).into()
}

/// Marks an export as a known-unimplemented stub: `#[export::unimplemented("sceFoo")]`
/// on an `extern "sysv64" fn` whose body returns the documented error code.
///
/// It exports the function under the name's NID (as [`macro@nid`] does), logs the name
/// the first time a title calls it, and exports a marker symbol
/// `native5_unimplemented.<NID>` so that the relinker's registry classes the import as
/// an unimplemented stub rather than as implemented.
#[proc_macro_attribute]
pub fn unimplemented(attr: TokenStream, item: TokenStream) -> TokenStream {
    let arg = parse_macro_input!(attr as NidArg);
    let mut f = parse_macro_input!(item as syn::ItemFn);
    let nid_text = &arg.nid;
    let display = &arg.display;
    let marker_name = format!("native5_unimplemented.{nid_text}");
    let marker = syn::Ident::new(
        &format!(
            "NATIVE5_UNIMPLEMENTED_{}",
            f.sig.ident.to_string().to_uppercase()
        ),
        f.sig.ident.span(),
    );
    let body = &f.block;
    let logged: syn::Block = syn::parse_quote!({
        static LOGGED: ::std::sync::Once = ::std::sync::Once::new();
        LOGGED.call_once(|| {
            ::std::eprintln!("native5: {} ({}) is not implemented yet; it returns an error", #display, #nid_text)
        });
        #body
    });
    *f.block = logged;
    let attr_tokens: TokenStream = match arg.raw {
        true => quote!(raw = #nid_text).into(),
        false => quote!(#display).into(),
    };
    let exported: proc_macro2::TokenStream = self::nid(attr_tokens, quote!(#f).into()).into();
    quote! {
        #exported
        #[doc(hidden)]
        #[unsafe(export_name = #marker_name)]
        pub static #marker: u8 = 0;
    }
    .into()
}
