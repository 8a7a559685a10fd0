//! Tools as types: the argument type derives the schema the model sees and is what the model's
//! arguments are parsed into before the tool runs, so the two can't drift.

use super::gate::Gate;
use crate::llm::{parse_args, Image, ToolArgsError, ToolCall, ToolSpec};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

/// What a tool gets besides its arguments.
pub struct ToolContext<'a, H: ?Sized> {
    pub host: &'a H,
    /// This call's step number, 1-based over the whole run.
    pub step: u32,
    /// Whether the model can see images; without it, screenshot tools answer in text.
    pub vision: bool,
}

/// A tool's successful answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// Goes to the model as the result's `data`.
    pub data: Value,
    /// One line for the user, e.g. "Scrolled down".
    pub summary: String,
    pub image: Option<Image>,
}

impl ToolOutput {
    pub fn new(data: impl Into<Value>, summary: impl Into<String>) -> Self {
        ToolOutput { data: data.into(), summary: summary.into(), image: None }
    }

    pub fn with_image(mut self, image: Image) -> Self {
        self.image = Some(image);
        self
    }
}

#[allow(async_fn_in_trait)]
pub trait Tool<H: ?Sized> {
    type Args: JsonSchema + DeserializeOwned;
    fn name(&self) -> &'static str;
    /// Empty means the argument type's doc comment.
    fn description(&self) -> &'static str {
        ""
    }
    /// One line for the UI about what this call is about to do.
    fn describe(&self, _args: &Self::Args) -> String {
        self.name().to_string()
    }
    /// How sensitive this call is, judged from the real page; most tools need no approval.
    async fn gate(&self, _args: &Self::Args, _ctx: &ToolContext<'_, H>) -> Gate {
        Gate::auto()
    }
    /// Err is a message for the model; the loop turns it into a failed result.
    async fn execute(&self, args: Self::Args, ctx: &ToolContext<'_, H>) -> Result<ToolOutput, String>;
}

type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, String>> + 'a>>;

/// A parsed call, ready to run once its gate allows.
pub struct Prepared<'a> {
    pub summary: String,
    pub gate: Gate,
    pub future: ToolFuture<'a>,
}

type PrepareFuture<'a> = Pin<Box<dyn Future<Output = Prepared<'a>> + 'a>>;

/// Object-safe face of `Tool`, so one registry holds tools with different argument types.
trait ErasedTool<H: ?Sized> {
    fn name(&self) -> &'static str;
    fn spec(&self) -> ToolSpec;
    fn prepare<'a>(&'a self, call: &ToolCall, ctx: &'a ToolContext<'a, H>) -> Result<PrepareFuture<'a>, ToolArgsError>;
}

impl<H: ?Sized, T: Tool<H>> ErasedTool<H> for T {
    fn name(&self) -> &'static str {
        Tool::name(self)
    }

    fn spec(&self) -> ToolSpec {
        ToolSpec::of::<T::Args>(Tool::name(self), self.description())
    }

    fn prepare<'a>(&'a self, call: &ToolCall, ctx: &'a ToolContext<'a, H>) -> Result<PrepareFuture<'a>, ToolArgsError> {
        let args: T::Args = parse_args(call)?;
        let summary = self.describe(&args);
        Ok(Box::pin(async move {
            let gate = self.gate(&args, ctx).await;
            Prepared { summary, gate, future: Box::pin(self.execute(args, ctx)) }
        }))
    }
}

/// An agent's tools; the provider's tool list is built from the same types.
pub struct Registry<H: ?Sized> {
    tools: Vec<Box<dyn ErasedTool<H>>>,
}

impl<H: ?Sized> Default for Registry<H> {
    fn default() -> Self {
        Registry { tools: Vec::new() }
    }
}

impl<H: ?Sized> Registry<H> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, tool: impl Tool<H> + 'static) -> Self {
        self.tools.push(Box::new(tool));
        self
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools.iter().map(|t| t.spec()).collect()
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|t| t.name()).collect()
    }

    /// Parses `call` into its tool's argument type; an unknown tool or bad arguments are Err.
    pub fn prepare<'a>(&'a self, call: &ToolCall, ctx: &'a ToolContext<'a, H>) -> Result<PrepareFuture<'a>, String> {
        let Some(tool) = self.tools.iter().find(|t| t.name() == call.name) else {
            return Err(format!("unknown tool `{}`; the tools are: {}", call.name, self.names().join(", ")));
        };
        tool.prepare(call, ctx).map_err(|e| e.to_string())
    }
}
