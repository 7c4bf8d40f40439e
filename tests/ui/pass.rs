fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

mod desk {
    agentc::agents!("pass/agents", tools = [super::issue_refund]);
}

fn main() {
    let billing = desk::Agent::Billing.def();
    assert_eq!(billing.start, Some(desk::Skill::RefundReview));
    let next = desk::Skill::RefundReview.def().next(desk::Tool::IssueRefund, agentc::runtime::Status::Success);
    assert_eq!(next, Some(desk::Skill::WrapUp));
    assert!(desk::Tool::IssueRefund.host().is_some());

    // Bodies are sliced out of each file's text at compile time; wrap-up's
    // file starts with a byte-order mark, which the slice skips.
    assert_eq!(desk::Skill::WrapUp.def().body, "Handle it carefully and say what you did.\n");
    assert_eq!(desk::Skill::RefundReview.def().body, "Handle it carefully and say what you did.\n");

    // Names and variants map both ways through the tables.
    for skill in desk::Skill::ALL {
        assert_eq!(desk::Skill::from_name(skill.name()), Some(*skill));
        assert_eq!(skill.to_string().parse::<desk::Skill>(), Ok(*skill));
        assert_eq!(skill.def().qualified, skill.name());
    }
    for tool in desk::Tool::ALL {
        assert_eq!(desk::Tool::from_name(tool.name()), Some(*tool));
    }
    for agent in desk::Agent::ALL {
        assert_eq!(desk::Agent::from_name(agent.name()), Some(*agent));
        assert_eq!(agent.def().id, agent.name());
    }
    assert_eq!(desk::Skill::ALL.len(), 2);
    assert_eq!(desk::Skill::from_name("wrap-down"), None);
    assert_eq!(desk::Tool::from_name(""), None);
    assert!("refund".parse::<desk::Skill>().is_err());
}
